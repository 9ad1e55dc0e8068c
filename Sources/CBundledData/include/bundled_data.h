#ifndef PUCKD_BUNDLED_DATA_H
#define PUCKD_BUNDLED_DATA_H
#include <stddef.h>
/// The default replay drive compiled into puckd: gpsd's regression log `nmea-rtk` (Trimble receiver,
/// 2020-03-18, 10 Hz RMC+GGA, DGPS then RTK fixed), raw NMEA bytes. It is the one log of gpsd's NMEA
/// corpus with real motion: 10 s of walking pace (up to 1.7 m/s) with the course turning through the
/// whole circle, then a 10.5-minute gap and 2 s standing still (RTK fixed).
/// Copyright the GPSD project, BSD-2-Clause: the licence text is `bundled_drive_license`.
const unsigned char *bundled_drive_bytes(void);
size_t bundled_drive_count(void);
/// gpsd's COPYING file, shipped with the drive it covers.
const unsigned char *bundled_drive_license_bytes(void);
size_t bundled_drive_license_count(void);
#endif
