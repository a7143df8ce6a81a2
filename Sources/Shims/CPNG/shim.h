#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H
#include <png.h>
// libpng's simplified API: these are macros Swift cannot import.
static const png_uint_32 PAJAMA_PNG_IMAGE_VERSION = PNG_IMAGE_VERSION;
static const png_uint_32 PAJAMA_PNG_FORMAT_RGBA = PNG_FORMAT_RGBA;
// A 16-bit file without gAMA, sRGB or iCCP is sRGB like an 8-bit one (libpng would take it as linear).
static const png_uint_32 PAJAMA_PNG_IMAGE_FLAG_16BIT_sRGB = PNG_IMAGE_FLAG_16BIT_sRGB;
static inline size_t pajama_png_image_size(png_imagep image) { return PNG_IMAGE_SIZE(*image); }
static inline int pajama_png_image_failed(png_imagep image) { return PNG_IMAGE_FAILED(*image); }
#endif
