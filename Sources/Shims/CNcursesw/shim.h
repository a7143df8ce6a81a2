#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
// SwiftPM drops pkg-config's -D flags: ask for the wide-character API here.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 600
#endif
#define _XOPEN_SOURCE_EXTENDED 1
#define _DEFAULT_SOURCE 1
#include <locale.h>
#include <ncurses.h>
// The terminfo level (setupterm, tigetstr, tigetnum, putp), for checking a terminal before initscr.
#include <term.h>

// Mutable C globals and macros that Swift cannot import, as functions and constants.
static inline WINDOW *pajama_stdscr(void) { return stdscr; }
static inline int pajama_lines(void) { return LINES; }
static inline int pajama_cols(void) { return COLS; }
static inline int pajama_colors(void) { return COLORS; }
static inline int pajama_color_pairs(void) { return COLOR_PAIRS; }
static inline TERMINAL *pajama_cur_term(void) { return cur_term; }
static const int PAJAMA_KEY_RESIZE = KEY_RESIZE;
static const int PAJAMA_KEY_MOUSE = KEY_MOUSE;
static const attr_t PAJAMA_A_BOLD = A_BOLD;
static const attr_t PAJAMA_A_DIM = A_DIM;
static const attr_t PAJAMA_A_REVERSE = A_REVERSE;
static const attr_t PAJAMA_A_UNDERLINE = A_UNDERLINE;
static const attr_t PAJAMA_A_ITALIC = A_ITALIC;
static const attr_t PAJAMA_A_NORMAL = A_NORMAL;
static const mmask_t PAJAMA_BUTTON1_CLICKED = BUTTON1_CLICKED;
static const mmask_t PAJAMA_BUTTON1_PRESSED = BUTTON1_PRESSED;
#endif
