import Foundation
import Testing

extension Tag {
    /// A test that takes seconds: a large library, or a span of time that is the behaviour under
    /// test. Give it `.disabledInQuickSuite` too.
    @Tag static var slow: Self
}

extension Trait where Self == ConditionTrait {
    /// Skips the test when `ALBUMSTORE_QUICK_TESTS=1` (`scripts/test --quick`). Swift Testing 6.3's
    /// `swift test` cannot skip by tag (`--skip tag:slow` comes later), so the tag alone cannot.
    static var disabledInQuickSuite: Self {
        .disabled(if: ProcessInfo.processInfo.environment["ALBUMSTORE_QUICK_TESTS"] == "1", "slow: not in the quick suite")
    }
}
