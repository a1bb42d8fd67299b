import Glibc
import GridlockCore
import LinuxSys
import Testing

/// The system's time zone through localtime_r: the offset it gives is the one the core
/// builds readings from, and an instant libc cannot convert is an error, not a trap.
@Suite struct WallClockTests {
    @Test("the system zone refuses instants libc cannot convert, with the errno, and never traps", arguments: [
        Int64.max, Int64.min, Int64(Int32.max) * 31_557_600 * 2,
    ])
    func systemZoneRefusesTheEndsOfTime(seconds: Int64) {
        do {
            let offset = try SystemTimeZone().utcOffset(at: seconds)
            Issue.record("localtime_r converted \(seconds) s to an offset of \(offset) s")
        } catch {
            guard case .zoneFailed(let at, let reason) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(at == seconds && reason.hasPrefix("localtime_r: "), "\(reason)")
        }
        #expect(SystemWallClock.local(epochSeconds: seconds) == nil)
        let now = WallTime(epochSeconds: seconds, zone: SystemTimeZone(), synchronised: true)
        let limits = PatternLimits(schedule: PatternSchedule(validUntil: LocalDateTime(year: 2099, month: 1, day: 1)))
        guard case .timeUnknown = limits.refusal(at: now, used: 0, trustUnsynchronisedClock: false) else {
            Issue.record("a pattern with a schedule was judged on a clock at \(seconds) s")
            return
        }
    }

    @Test("a reading is what localtime_r shows for the same instant", arguments: [
        Int64(0), -1, 951_825_600, 1_774_746_000, 1_792_890_000, -62_135_424_000 /* 0001-01-03 */, 253_402_128_000 /* 9999-12-30 */,
    ])
    func readingsMatchLocaltime(seconds: Int64) throws {
        var time = time_t(seconds)
        var parts = tm()
        try #require(localtime_r(&time, &parts) != nil)
        let reading = try #require(SystemWallClock.local(epochSeconds: seconds))
        #expect(reading.year == Int(parts.tm_year) + 1900 && reading.month == Int(parts.tm_mon) + 1 && reading.day == Int(parts.tm_mday))
        #expect(reading.hour == Int(parts.tm_hour) && reading.minute == Int(parts.tm_min) && reading.second == Int(parts.tm_sec))
        #expect(reading.weekday.rawValue % 7 == Int(parts.tm_wday))
    }

    @Test("the clock now reads a time the zone converts")
    func nowConverts() throws {
        let now = SystemWallClock.now()
        let reading = try now.zone.reading(at: now.epochSeconds)
        #expect(reading.year >= 2024)
    }
}
