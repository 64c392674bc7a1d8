import AlbumStore
import ArgumentParser
import FoundationEssentials

/// The value of `--year`: a whole number, or nothing when empty (which `edit` reads as "clear").
///
/// Parsed by ArgumentParser rather than by hand in `run()`, so that `--year abc` is a usage error
/// (exit 2, naming the option) like every other badly spelt value, not a refused operation
/// (exit 1). Whether the year is plausible (1000 to next year) is the library's check.
struct YearArgument: ExpressibleByArgument, Equatable {
    /// The year; `nil` for an empty value.
    var year: Int?

    /// Surrounding white space is trimmed, as the library trims text fields.
    init?(argument: String) {
        let trimmed = argument.trimmingWhitespace()
        if trimmed.isEmpty {
            year = nil
        } else if let year = Int(trimmed) {
            self.year = year
        } else {
            return nil
        }
    }

    static var defaultValueDescription: String { "a whole number" }
}
