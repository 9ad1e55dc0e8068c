/// The `[track]` keys: the journal of every fix (docs/track-log.md §3).
extension ConfigurationKeys {
    public static let track: [ConfigurationKey] = [
        .boolean("track", "enabled", \.track.enabled, doc: "record every fix into the track journal"),
        .text("track", "directory", \.track.directory,
              allowed: "a directory path, absolute or relative to [state] directory",
              doc: "where the journal's segments are written (default track/ in the state directory)",
              validate: { $0.isEmpty ? "empty, write e.g. track or /var/lib/puckd/track" : nil }),
        .decimal("track", "flush_interval_s", \.track.flushIntervalSeconds, 0...3600, unit: "seconds, 0 = every fix",
                 doc: "buffered records are written and flushed to disk this often (a power cut loses at most this much) "
                    + "and at shutdown"),
        .decimal("track", "max_size_mb", \.track.maximumSizeMegabytes, 1...1_048_576, unit: "MiB",
                 doc: "the journal's total size cap; beyond it the oldest segments are dropped (and counted)"),
        .boolean("track", "raw_nmea", \.track.rawNMEA,
                 doc: "also keep the raw NMEA as received beside each segment (puckd track export --nmea, for puckd replay)"),
    ]
}
