#ifndef PAJAMA_SPAWN_CLOSE_FROM_H
#define PAJAMA_SPAWN_CLOSE_FROM_H

#include "spawn_bound.h"

/// Adds "close every descriptor from `lowest` up" to a posix_spawn file-actions object
/// (glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare).
/// `actions` is a posix_spawn_file_actions_t *. Returns 0 or an errno value.
int pajama_spawn_close_from(void *actions, int lowest);

#endif
