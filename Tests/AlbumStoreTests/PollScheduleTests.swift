import Testing
@testable import AlbumStore

/// How a change feed backs off when nothing happens.
struct PollScheduleTests {
    let start = ContinuousClock.now

    @Test func itLooksOftenUntilQuietForASecondThenSeldom() {
        let schedule = PollSchedule(active: .milliseconds(10), idle: .milliseconds(250), now: start)

        #expect(schedule.interval(at: start) == .milliseconds(10))
        #expect(schedule.interval(at: start + .milliseconds(999)) == .milliseconds(10))
        #expect(schedule.interval(at: start + .seconds(1)) == .milliseconds(250))
    }

    @Test func activityBringsItBackToLookingOften() {
        var schedule = PollSchedule(active: .milliseconds(10), idle: .milliseconds(250), now: start)
        schedule.noteActivity(at: start + .seconds(5))

        #expect(schedule.interval(at: start + .milliseconds(5500)) == .milliseconds(10))
        #expect(schedule.interval(at: start + .seconds(7)) == .milliseconds(250))
    }

    @Test func theIdleIntervalIsNeverShorterThanTheActiveOne() {
        let schedule = PollSchedule(active: .milliseconds(500), idle: .milliseconds(250), now: start)
        #expect(schedule.interval(at: start + .seconds(2)) == .milliseconds(500))
    }
}
