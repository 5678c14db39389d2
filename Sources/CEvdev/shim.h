// evdev and uinput from the kernel's headers (Debian: linux-libc-dev). Their ioctl requests are
// function-like macros (_IOW, EVIOCGNAME(len), …), which Swift cannot import: one wrapper each.
#include <linux/input.h>
#include <linux/uinput.h>
#include <sys/ioctl.h>
#include <string.h>

/// Takes (1) or gives back (0) a device exclusively: while grabbed, its events reach only this
/// file descriptor, not the console's keyboard handler nor any other reader.
static inline int cevdev_grab(int fd, int grab) { return ioctl(fd, EVIOCGRAB, grab); }

/// The evdev protocol version; fails with ENOTTY on anything that is not an event device.
static inline int cevdev_version(int fd, int *version) { return ioctl(fd, EVIOCGVERSION, version); }

/// The device's name as its firmware reports it ("Honeywell Imaging … Scanner").
static inline int cevdev_name(int fd, char *name, unsigned int size) { return ioctl(fd, EVIOCGNAME(size), name); }

/// Bus, vendor, product and version of the device.
static inline int cevdev_id(int fd, struct input_id *id) { return ioctl(fd, EVIOCGID, id); }

/// A uinput keyboard (tests): key events for every code below KEY_MAX that a scanner could send.
static inline int cevdev_uinput_create_keyboard(int fd, const char *name, unsigned short vendor, unsigned short product) {
    if (ioctl(fd, UI_SET_EVBIT, EV_KEY) < 0) return -1;
    if (ioctl(fd, UI_SET_EVBIT, EV_SYN) < 0) return -1;
    for (int key = KEY_ESC; key <= KEY_102ND; key++) {
        if (ioctl(fd, UI_SET_KEYBIT, key) < 0) return -1;
    }
    if (ioctl(fd, UI_SET_KEYBIT, KEY_KPENTER) < 0 || ioctl(fd, UI_SET_KEYBIT, KEY_RIGHTCTRL) < 0 ||
        ioctl(fd, UI_SET_KEYBIT, KEY_KPSLASH) < 0 || ioctl(fd, UI_SET_KEYBIT, KEY_RIGHTALT) < 0) return -1;
    struct uinput_setup setup;
    memset(&setup, 0, sizeof setup);
    setup.id.bustype = BUS_USB;
    setup.id.vendor = vendor;
    setup.id.product = product;
    strncpy(setup.name, name, UINPUT_MAX_NAME_SIZE - 1);
    if (ioctl(fd, UI_DEV_SETUP, &setup) < 0) return -1;
    return ioctl(fd, UI_DEV_CREATE);
}

/// The name of the uinput device's directory under /sys/devices/virtual/input ("input12").
static inline int cevdev_uinput_sysname(int fd, char *name, unsigned int size) { return ioctl(fd, UI_GET_SYSNAME(size), name); }

static inline int cevdev_uinput_destroy(int fd) { return ioctl(fd, UI_DEV_DESTROY); }

// openpty (in libc since glibc 2.34): the tests play a serial scanner on a pseudo-terminal.
#include <pty.h>
