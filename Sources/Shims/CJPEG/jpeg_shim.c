#include "CJPEG.h"
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct pajama_jpeg {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf escape;
    int max_scans;
    char *message;
};

__attribute__((noreturn)) static void fail_with(struct pajama_jpeg *jpeg, const char *text) {
    snprintf(jpeg->message, PAJAMA_JPEG_MESSAGE_LENGTH, "%s", text);
    longjmp(jpeg->escape, 1);
}

static void on_error(j_common_ptr common) {
    struct pajama_jpeg *jpeg = (struct pajama_jpeg *)common;
    char text[JMSG_LENGTH_MAX];
    common->err->format_message(common, text);
    fail_with(jpeg, text);
}

// Warnings (level -1) that mean the picture is damaged end the read: a truncated or corrupt file is an
// error, not a picture with grey or smeared parts. Other warnings (extra bytes between markers, an unknown
// JFIF revision, a progressive scan that repeats or skips a refinement) and trace messages are ignored.
static void on_message(j_common_ptr common, int level) {
    if (level != -1) return;
    struct pajama_jpeg *jpeg = (struct pajama_jpeg *)common;
    switch (common->err->msg_code) {
    case JWRN_JPEG_EOF:
        fail_with(jpeg, "the file ends before the picture does (truncated)");
    case JWRN_HIT_MARKER: case JWRN_HUFF_BAD_CODE: case JWRN_ARITH_BAD_CODE: case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL: {
        char text[JMSG_LENGTH_MAX];
        common->err->format_message(common, text);
        fail_with(jpeg, text);
    }
    default:
        return;
    }
}

// A progressive JPEG may have any number of scans, each a pass over the whole picture: a small file of
// thousands of scans costs minutes. Refused past max_scans (libjpeg-turbo's djpeg -maxscans does the same).
static void on_progress(j_common_ptr common) {
    struct pajama_jpeg *jpeg = (struct pajama_jpeg *)common;
    if (jpeg->info.input_scan_number > jpeg->max_scans) {
        char text[PAJAMA_JPEG_MESSAGE_LENGTH];
        snprintf(text, sizeof text, "more than %d progressive scans", jpeg->max_scans);
        fail_with(jpeg, text);
    }
}

pajama_jpeg *pajama_jpeg_open(const unsigned char *data, size_t size, int max_scans, char *message) {
    struct pajama_jpeg *jpeg = calloc(1, sizeof *jpeg);
    if (jpeg == NULL) {
        snprintf(message, PAJAMA_JPEG_MESSAGE_LENGTH, "out of memory");
        return NULL;
    }
    jpeg->message = message;
    jpeg->max_scans = max_scans;
    jpeg->info.err = jpeg_std_error(&jpeg->errors);
    jpeg->errors.error_exit = on_error;
    jpeg->errors.emit_message = on_message;
    if (setjmp(jpeg->escape)) {
        jpeg_destroy_decompress(&jpeg->info);
        free(jpeg);
        return NULL;
    }
    jpeg_create_decompress(&jpeg->info);
    jpeg->progress.progress_monitor = on_progress;
    jpeg->info.progress = &jpeg->progress;
    jpeg_mem_src(&jpeg->info, data, (unsigned long)size);
    jpeg_read_header(&jpeg->info, TRUE);
    return jpeg;
}

unsigned pajama_jpeg_width(const pajama_jpeg *jpeg) { return jpeg->info.image_width; }
unsigned pajama_jpeg_height(const pajama_jpeg *jpeg) { return jpeg->info.image_height; }

static void cmyk_to_rgba(const JSAMPLE *cmyk, unsigned char *rgba, JDIMENSION width, int inverted) {
    for (JDIMENSION x = 0; x < width; x++, cmyk += 4, rgba += 4) {
        // Adobe's CMYK (an APP14 marker) is stored inverted: the stored value is 255 - ink.
        unsigned c = inverted ? cmyk[0] : 255u - cmyk[0], m = inverted ? cmyk[1] : 255u - cmyk[1];
        unsigned y = inverted ? cmyk[2] : 255u - cmyk[2], k = inverted ? cmyk[3] : 255u - cmyk[3];
        rgba[0] = (unsigned char)((c * k + 127) / 255);
        rgba[1] = (unsigned char)((m * k + 127) / 255);
        rgba[2] = (unsigned char)((y * k + 127) / 255);
        rgba[3] = 255;
    }
}

int pajama_jpeg_read_rgba(pajama_jpeg *jpeg, unsigned char *rgba, char *message) {
    // volatile: changed between setjmp and a longjmp back to it.
    JSAMPLE *volatile row = NULL;
    jpeg->message = message;
    if (setjmp(jpeg->escape)) {
        free(row);
        return 0;
    }
    int cmyk = jpeg->info.jpeg_color_space == JCS_CMYK || jpeg->info.jpeg_color_space == JCS_YCCK;
    jpeg->info.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&jpeg->info);
    JDIMENSION width = jpeg->info.output_width;
    size_t stride = (size_t)width * 4;
    if (cmyk) {
        row = malloc(stride);
        if (row == NULL) fail_with(jpeg, "out of memory");
    }
    while (jpeg->info.output_scanline < jpeg->info.output_height) {
        unsigned char *out = rgba + (size_t)jpeg->info.output_scanline * stride;
        JSAMPROW target = cmyk ? row : out;
        if (jpeg_read_scanlines(&jpeg->info, &target, 1) != 1) fail_with(jpeg, "the file ends before the picture does (truncated)");
        if (cmyk) cmyk_to_rgba(row, out, width, jpeg->info.saw_Adobe_marker);
    }
    jpeg_finish_decompress(&jpeg->info);
    free(row);
    return 1;
}

void pajama_jpeg_close(pajama_jpeg *jpeg) {
    if (jpeg == NULL) return;
    jpeg_destroy_decompress(&jpeg->info);
    free(jpeg);
}
