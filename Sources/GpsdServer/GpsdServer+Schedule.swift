extension GpsdServer {
    /// When the next PUCK/CAMERA frame is due at a `puckd` watcher with a rate (monotonic ns; nil:
    /// none watches): the device ticks for it when it ticks on demand (docs/power.md §2).
    public var nextPuckdFrameNanoseconds: Int64? {
        var next: Int64?
        var i = 0
        while i < slots.count {
            if slots[i].isOpen && slots[i].watch.wantsPuckd {
                let t = slots[i].nextPuckdNanoseconds
                if next == nil || t < next! { next = t }
            }
            i += 1
        }
        return next
    }
}
