// libqrencode, used to draw the QR code on badges and to generate test frames.
#include <qrencode.h>
