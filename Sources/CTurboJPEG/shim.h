// libjpeg-turbo's TurboJPEG API (Debian libturbojpeg0-dev): JPEG/MJPEG frames to 8-bit gray.
// Chosen over the libjpeg API because it reports errors by return value; libjpeg's default
// error handler calls exit() and replacing it needs setjmp, which Swift cannot call.
#include <turbojpeg.h>
