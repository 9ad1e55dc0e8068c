// libgpiod itself, as the system's libgpiod-dev package (or PKG_CONFIG_PATH) provides it: v1 (Debian 12 /
// Raspberry Pi OS bookworm, 1.6.3) or v2 (Debian 13 / Raspberry Pi OS trixie, 2.2.1). Only the C shim in
// Sources/CGPIOD includes it; Swift code uses the shim's one API (Sources/CGPIOD/include/CGPIOD.h).
#include <gpiod.h>
