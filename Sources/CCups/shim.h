// libcups 2.x: job submission and IPP status requests. Debian ships no cups.pc, so no pkgConfig.
#include <cups/cups.h>
#include <cups/ipp.h>
