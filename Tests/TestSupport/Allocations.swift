import CMallocCounter

/// Heap allocations made by the calling thread while `body` runs (malloc, calloc, realloc and the
/// aligned variants; frees are not counted). Tests use it to prove a hot path allocates nothing:
/// warm the path up first (the first call fills metadata caches), then measure.
@inline(never)
public func allocationCount(_ body: () throws -> Void) rethrows -> UInt64 {
    let before = mc_thread_allocations()
    try body()
    return mc_thread_allocations() &- before
}

/// Heap allocations made by the calling thread since it started.
public func threadAllocations() -> UInt64 { mc_thread_allocations() }
