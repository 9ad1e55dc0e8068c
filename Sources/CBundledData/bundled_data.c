// Data compiled into the binary with C23 #embed (clang): one copy in the repository, under
// Tests/Fixtures, where the tests score the same bytes against gpsd's reference decode.
#include "bundled_data.h"

#pragma clang diagnostic ignored "-Wc23-extensions"

static const unsigned char drive[] = {
#embed "../../Tests/Fixtures/nmea/gpsd/nmea-rtk.nmea"
};
static const unsigned char license[] = {
#embed "../../Tests/Fixtures/nmea/gpsd/COPYING"
};

const unsigned char *bundled_drive_bytes(void) { return drive; }
size_t bundled_drive_count(void) { return sizeof(drive); }
const unsigned char *bundled_drive_license_bytes(void) { return license; }
size_t bundled_drive_license_count(void) { return sizeof(license); }
