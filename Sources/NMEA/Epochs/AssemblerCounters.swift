/// What the `EpochAssembler` did with the sentences it was given.
public struct AssemblerCounters: Sendable, Equatable {
    /// Epochs completed (one `Fix` each).
    public var epochs = 0
    /// Completed epochs that held a 2D or 3D fix.
    public var epochsWithFix = 0
    /// Completed epochs without a date (no RMC/ZDA date seen yet): their `utcNanoseconds` is nil.
    public var epochsWithoutDate = 0
    /// Epochs whose time was earlier than the previous epoch's.
    public var timeWentBackwards = 0
    /// Gaps of more than `EpochAssembler.gapThresholdNanoseconds` between consecutive epochs.
    public var gaps = 0
    /// Dates moved forward by 1024 GPS weeks (see `UTCDateResolver`).
    public var weekRolloverCorrections = 0
    /// Epochs whose speed (and course) were derived from successive positions.
    public var derivedVelocities = 0
    /// GGA/RMC/GLL/GNS sentences with an empty time field (skipped: they cannot be placed in an epoch).
    public var sentencesWithoutTime = 0
    /// Untimed sentences (GSA, VTG, HDT …) before the first timed one (skipped).
    public var sentencesBeforeFirstEpoch = 0
    /// GST sentences whose time did not match the current epoch (skipped).
    public var unmatchedErrorStatistics = 0
    /// GSV sentences out of sequence (a part missing or repeated; skipped).
    public var satelliteSequenceErrors = 0
    /// Complete sky views published.
    public var skyViews = 0
    /// Epochs closed at their learned cycle ender (`CycleEnderLearner`), the moment it arrived.
    public var epochsClosedAtCycleEnder = 0
    /// Epochs closed because the line went quiet after them (`EpochAssembler.closeIfQuiet`).
    public var epochsClosedByQuietLine = 0
    /// Epochs closed by the next epoch's first timed sentence or the end of the stream (no ender
    /// predicted, or it did not come).
    public var epochsClosedByNextEpoch = 0
    /// Sentences for an epoch that was already closed (after its ender or a quiet line): skipped.
    public var sentencesAfterClose = 0
    /// Learning epochs closed by the burst end before the cycle's end (a sentence of theirs came after
    /// the close): each grows the burst-end wait (`EpochAssembler.longestCuttingPauseNanoseconds`).
    public var epochsCutWhileLearning = 0

    public init() {}
}
