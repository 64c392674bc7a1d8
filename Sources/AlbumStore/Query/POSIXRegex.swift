#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX extended regular expression compiled by the C library (`regcomp`), which `field::pattern`
/// matches with: it matches text as Unicode characters, whatever the process's locale.
///
/// The C library's matcher follows all the ways through the pattern at once instead of
/// backtracking, so `(a+)+b` or `.*a.*a.*c` take time in proportion to the text, never
/// exponential time; back-references would, and `RegexShape` refuses them before compiling.
final class POSIXRegex {
    /// A pattern the C library does not compile, with its reason (`regerror`).
    struct Invalid: Error, CustomStringConvertible {
        var description: String
    }

    private let compiled: UnsafeMutablePointer<regex_t>

    /// Compiles `pattern`. A leading `(?i)`, which POSIX lacks, is dropped and ignores case.
    /// - Throws: `Invalid` with the C library's reason.
    init(_ pattern: String) throws(Invalid) {
        var flags = REG_EXTENDED | REG_NOSUB
        var body = Substring(pattern)
        if body.hasPrefix("(?i)") {
            body = body.dropFirst(4)
            flags |= REG_ICASE
        }
        let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let status = Self.inUTF8 { regcomp(compiled, String(body), flags) }
        guard status == 0 else {
            // A failed regcomp frees what it allocated; only the reason is left to read.
            var reason = [CChar](repeating: 0, count: 256)
            regerror(status, compiled, &reason, reason.count)
            compiled.deallocate()
            throw Invalid(description: reason.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        self.compiled = compiled
    }

    deinit {
        regfree(compiled)
        compiled.deallocate()
    }

    /// Whether the expression matches somewhere in `text`.
    func matches(_ text: String) -> Bool {
        Self.inUTF8 { text.withCString { regexec(compiled, $0, 0, nil, 0) == 0 } }
    }

    /// A UTF-8 character type, so that `.` is one `é` and `[[:alpha:]]` takes `ö`; created once and
    /// never changed, which is what lets every thread use it. `nil` where the system has none.
    nonisolated(unsafe) private static let utf8Locale: locale_t? = {
        for name: String in ["C.UTF-8", "UTF-8", "en_US.UTF-8"] {
            if let locale = newlocale(LC_CTYPE_MASK, name, nil) { return locale }
        }
        return nil
    }()

    /// Runs `body` with this thread's locale set to `utf8Locale`, then restores the thread's own.
    /// Never `setlocale`: that would change the locale of the whole process under other threads.
    private static func inUTF8<T>(_ body: () -> T) -> T {
        guard let utf8Locale else { return body() }
        let previous = uselocale(utf8Locale)
        defer { uselocale(previous) }
        return body()
    }
}
