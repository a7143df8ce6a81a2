#ifndef CJPEG_H
#define CJPEG_H
#include <stddef.h>

// libjpeg(-turbo) reports errors by calling a function that must not return: its callers longjmp out,
// which Swift cannot do. This shim owns the setjmp and turns every error into a return value and a message.

/// Room for a message, terminating NUL included.
#define PAJAMA_JPEG_MESSAGE_LENGTH 200

/// One JPEG being read from memory (opaque).
typedef struct pajama_jpeg pajama_jpeg;

/// Reads the header of the JPEG in `data` (which must outlive the handle): its size, nothing decoded yet.
/// NULL on failure, with the reason in `message`.
pajama_jpeg *pajama_jpeg_open(const unsigned char *data, size_t size, int max_scans, char *message);
unsigned pajama_jpeg_width(const pajama_jpeg *jpeg);
unsigned pajama_jpeg_height(const pajama_jpeg *jpeg);
/// Decodes the pixels into `rgba` (width * height * 4 bytes, alpha 255): greyscale and YCbCr through
/// libjpeg's own conversion, CMYK and YCCK converted here (Adobe's inverted CMYK too). 1 on success; 0 with
/// the reason in `message` on an error, a truncated file, corrupt data or more than `max_scans` scans.
int pajama_jpeg_read_rgba(pajama_jpeg *jpeg, unsigned char *rgba, char *message);
void pajama_jpeg_close(pajama_jpeg *jpeg);

#endif
