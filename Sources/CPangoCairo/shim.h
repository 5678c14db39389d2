// cairo (PDF and PNG surfaces) and pango (text layout for every script) for badge rendering.
#include <cairo.h>
#include <cairo-pdf.h>
#include <pango/pangocairo.h>
