// libzbar (Debian libzbar-dev). Only QRScan imports this module.
#include <zbar.h>

/// `zbar_fourcc` is a function-like macro, which Swift cannot import.
static inline unsigned long czbar_fourcc(char a, char b, char c, char d) {
    return zbar_fourcc(a, b, c, d);
}
