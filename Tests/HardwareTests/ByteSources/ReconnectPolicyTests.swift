import Testing
@testable import Hardware

@Suite struct ReconnectPolicyTests {
    let second: Int64 = 1_000_000_000

    @Test func delaysDoubleFromHalfASecondUpToThirtySeconds() {
        let policy = ReconnectPolicy()
        let delays = (1...9).map { policy.delayNanoseconds(afterFailures: $0) }
        #expect(delays == [500_000_000, 1_000_000_000, 2_000_000_000, 4_000_000_000, 8_000_000_000,
                           16_000_000_000, 30_000_000_000, 30_000_000_000, 30_000_000_000])
        #expect(policy.delayNanoseconds(afterFailures: 1_000_000) == 30 * second)
    }

    @Test func failuresScheduleTheNextAttemptFromTheTimePassedIn() {
        var policy = ReconnectPolicy()
        #expect(policy.failed(nowNanoseconds: 100 * second) == 100 * second + 500_000_000)
        #expect(policy.failed(nowNanoseconds: 101 * second) == 102 * second)
        #expect(policy.failed(nowNanoseconds: 103 * second) == 105 * second)
        #expect(policy.consecutiveFailures == 3)
    }

    @Test func aShortLivedConnectionKeepsBackingOff() {
        var policy = ReconnectPolicy()
        _ = policy.failed(nowNanoseconds: 0)
        _ = policy.failed(nowNanoseconds: 1 * second)
        policy.opened(nowNanoseconds: 2 * second)
        // Open for 3 s (< 10 s healthy period): the backoff continues at 2 s.
        #expect(policy.failed(nowNanoseconds: 5 * second) == 7 * second)
        #expect(policy.consecutiveFailures == 3)
    }

    @Test func aHealthyConnectionResetsTheBackoff() {
        var policy = ReconnectPolicy()
        for t in 0..<6 { _ = policy.failed(nowNanoseconds: Int64(t) * second) }
        policy.opened(nowNanoseconds: 100 * second)
        #expect(policy.openedAtNanoseconds == 100 * second)
        // Open exactly the healthy period: back to the initial delay.
        #expect(policy.failed(nowNanoseconds: 110 * second) == 110 * second + 500_000_000)
        #expect(policy.consecutiveFailures == 1)
        #expect(policy.openedAtNanoseconds == nil)
    }

    @Test func customTimesAndSaturation() {
        var policy = ReconnectPolicy(initialDelayNanoseconds: 20_000_000, maximumDelayNanoseconds: 50_000_000,
                                     healthyAfterNanoseconds: second)
        #expect(policy.failed(nowNanoseconds: 0) == 20_000_000)
        #expect(policy.failed(nowNanoseconds: 0) == 40_000_000)
        #expect(policy.failed(nowNanoseconds: 0) == 50_000_000)
        // Never overflows past Int64.max, whatever the clock says.
        #expect(policy.failed(nowNanoseconds: Int64.max - 1) == Int64.max)
        // A maximum below the initial delay is raised to it.
        #expect(ReconnectPolicy(initialDelayNanoseconds: 5, maximumDelayNanoseconds: 1).maximumDelayNanoseconds == 5)
    }
}
