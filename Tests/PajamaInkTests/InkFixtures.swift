/// Small compiled stories written by hand for the PajamaInk tests (the conformance corpus is not copied here).
enum InkFixtures {
    /// "Hello " glued to "world", then a plain line.
    static let glue = #"""
    {"inkVersion":21,"root":[["^Hello ","<>","\n","^world","\n","^Second line.","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}
    """#

    /// Three RANDOM calls (two in 1..100, one in -5..5).
    static let random = #"""
    {"inkVersion":21,"root":[["ev",1,100,"rnd","out","/ev","\n","ev",1,100,"rnd","out","/ev","\n","ev",-5,5,"rnd","out","/ev","\n",["done",{"#n":"g-0"}],null],"done",null],"listDefs":{}}
    """#

    /// A once-only choice and a sticky one that loop back to the top; a line tag and a choice tag.
    static let choices = #"""
    {"inkVersion":21,"root":[["^Top","#","^line tag","/#","\n",["ev","str","^Once","/str","/ev",{"*":"0.5.c-0","flg":20},"ev","str","^Again","#","^choice tag","/#","/str","/ev",{"*":"0.5.c-1","flg":4},{"c-0":["\n","^Took once","\n",{"->":"0"},{"#f":5}],"c-1":["\n","^Took again","\n",{"->":"0"},{"#f":5}]}],{"#f":1}],"done",null],"listDefs":{}}
    """#

    /// A global counter, a function that doubles it, and a LIST with an item added.
    static let variablesAndLists = #"""
    {"inkVersion":21,"root":[["ev",{"VAR?":"x"},2,"*",{"VAR=":"x","re":true},"/ev","ev",{"VAR?":"x"},"out","/ev","\n","ev",{"f()":"double"},"out","/ev","\n","ev",{"VAR?":"colours"},{"VAR?":"blue"},"+",{"VAR=":"colours","re":true},"/ev","ev",{"VAR?":"colours"},"out","/ev","\n","ev",{"VAR?":"colours"},"LIST_COUNT","out","/ev","\n","end",null],"done",{"double":["ev",{"VAR?":"x"},2,"*","/ev","~ret",{"#f":1}],"global decl":["ev",21,{"VAR=":"x"},{"list":{"colours.red":1}},{"VAR=":"colours"},"/ev","end",null]}],"listDefs":{"colours":{"red":1,"green":2,"blue":3}}}
    """#
}
