#!/usr/bin/python3
"""Makes the picture fixtures of Tests/Fixtures/pictures (committed; run again only to change them).

Every file shows the same 32x16 picture of four 16x8 quadrants: red top left, green top right, blue bottom
left, white bottom right (solid blocks, so lossy formats keep their colours away from the edges). The
tests (Tests/PajamaImageTests) check those colours at the quadrants' centres. Made with Pillow (Debian's
python3-pil, which encodes through libjpeg-turbo and libwebp), one file for each case ImageDecoder reads:

  quadrants.png                    the reference
  baseline.jpg progressive.jpg     YCbCr JPEG, 4:2:0
  grey.jpg                         greyscale JPEG (the quadrants in four greys: 76, 150, 29, 255)
  cmyk.jpg                         CMYK JPEG with Adobe's APP14 marker (stored inverted, as Photoshop does)
  orientation-N.jpg (N = 1..8)     stored turned so that EXIF orientation N shows the quadrants upright
  lossy.webp lossless.webp         WebP
  alpha.webp alpha-lossy.webp      WebP with alpha: the white quadrant transparent
  animated.webp animated.gif       two frames: the quadrants, then all black (the first one is shown)
  transparent.gif                  GIF whose white quadrant is the transparent colour (interlaced)
  plain.gif                        GIF, not interlaced, no transparency
"""
import pathlib
import sys

from PIL import Image

out = pathlib.Path(__file__).resolve().parent.parent / "Tests" / "Fixtures" / "pictures"
out.mkdir(parents=True, exist_ok=True)

RED, GREEN, BLUE, WHITE = (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)


def quadrants(mode="RGB", transparent_white=False):
    image = Image.new("RGBA", (32, 16))
    for (x, y), colour in {(0, 0): RED, (16, 0): GREEN, (0, 8): BLUE, (16, 8): WHITE}.items():
        alpha = 0 if transparent_white and colour == WHITE else 255
        image.paste(colour + (alpha,), (x, y, x + 16, y + 8))
    return image if mode == "RGBA" else image.convert(mode)


def save(image, name, **options):
    image.save(out / name, **options)


upright = quadrants()
save(upright, "quadrants.png")
save(upright, "baseline.jpg", quality=95)
save(upright, "progressive.jpg", quality=95, progressive=True)
save(quadrants("L"), "grey.jpg", quality=95)
save(quadrants("CMYK"), "cmyk.jpg", quality=95)

# EXIF orientation N shows stored pixels turned by T(N); each file stores the picture turned by T(N)'s
# inverse, so that it shows upright.
T = Image.Transpose
inverse = {2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM, 5: T.TRANSPOSE,
           6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}
for n in range(1, 9):
    stored = upright.transpose(inverse[n]) if n in inverse else upright
    exif = Image.Exif()
    exif[0x0112] = n
    save(stored, f"orientation-{n}.jpg", quality=95, exif=exif.tobytes())

save(upright, "lossy.webp", quality=90)
save(upright, "lossless.webp", lossless=True)
save(quadrants("RGBA", transparent_white=True), "alpha.webp", lossless=True)
save(quadrants("RGBA", transparent_white=True), "alpha-lossy.webp", quality=90)
black = Image.new("RGB", (32, 16))
upright.save(out / "animated.webp", save_all=True, append_images=[black], duration=100, loop=0, lossless=True)

# GIF: a palette of the four colours; white is index 3, the transparent one in transparent.gif.
palette = Image.new("P", (1, 1))
palette.putpalette(list(RED + GREEN + BLUE + WHITE) + [0] * (256 - 4) * 3)
indexed = upright.quantize(palette=palette, dither=Image.Dither.NONE)
save(indexed, "transparent.gif", transparency=3, interlace=True)
save(indexed, "plain.gif", interlace=False)
indexed.save(out / "animated.gif", save_all=True, append_images=[black.quantize(palette=palette, dither=Image.Dither.NONE)],
             duration=100, loop=0, interlace=False)
print("\n".join(sorted(p.name for p in out.iterdir())), file=sys.stderr)
