// libserialport (Debian: libserialport-dev 0.1.1). Every call lives in Sources/Hardware/SerialPort*.swift.
#include <libserialport.h>
