#ifndef CPULSE_SHIM_H
#define CPULSE_SHIM_H
#include <pulse/pulseaudio.h>
// Macros Swift cannot import.
static const pa_sample_format_t PAJAMA_PA_SAMPLE_FLOAT32NE = PA_SAMPLE_FLOAT32NE;
static const pa_sample_format_t PAJAMA_PA_SAMPLE_S16NE = PA_SAMPLE_S16NE;
static const uint32_t PAJAMA_PA_INVALID_INDEX = PA_INVALID_INDEX;
#endif
