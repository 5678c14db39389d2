// The wide-character ncurses API without -D_XOPEN_SOURCE leaking into every Swift file.
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <wchar.h>
#include <curses.h>

// Swift 6 rejects reads of C globals (stdscr, LINES, COLS): read them through functions.
static inline WINDOW *cncursesw_stdscr(void) { return stdscr; }
static inline int cncursesw_lines(void) { return LINES; }
static inline int cncursesw_cols(void) { return COLS; }
// Macro-only APIs.
static inline int cncursesw_a_bold(void) { return (int)A_BOLD; }
static inline int cncursesw_a_reverse(void) { return (int)A_REVERSE; }
static inline int cncursesw_color_pair(short n) { return (int)COLOR_PAIR(n); }
static inline void cncursesw_setlocale(void) { setlocale(LC_ALL, ""); }
