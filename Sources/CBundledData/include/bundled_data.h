#ifndef PUCKD_BUNDLED_DATA_H
#define PUCKD_BUNDLED_DATA_H
#include <stddef.h>
/// The default replay drive compiled into puckd: gpsd's regression log `quectel-l76k-nmea`
/// (Quectel L76K, Seattle 2026-08-05, 5 Hz, GPS+GLONASS+BeiDou), raw NMEA bytes.
/// Copyright the GPSD project, BSD-2-Clause: the licence text is `bundled_drive_license`.
const unsigned char *bundled_drive_bytes(void);
size_t bundled_drive_count(void);
/// gpsd's COPYING file, shipped with the drive it covers.
const unsigned char *bundled_drive_license_bytes(void);
size_t bundled_drive_license_count(void);
#endif
