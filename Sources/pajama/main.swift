print("pajama")
