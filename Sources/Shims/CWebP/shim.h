#ifndef CWEBP_SHIM_H
#define CWEBP_SHIM_H
// libwebp's decoder (still pictures) and its animation decoder (the first frame of an animated WebP).
#include <webp/decode.h>
#include <webp/demux.h>
#endif
