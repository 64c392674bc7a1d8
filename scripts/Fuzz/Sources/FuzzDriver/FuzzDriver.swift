import CFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer on `test` (the target's `LLVMFuzzerTestOneInput`) with the process's
/// arguments, and exits with its status.
///
/// Why a main of our own: SwiftPM links every executable with its main renamed and aliased to
/// `main`, which takes the place of libFuzzer's; libFuzzer's then still needs
/// `LLVMFuzzerTestOneInput` to link, so each target defines it with `@c` and passes it here.
public func runFuzzer(_ test: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, test))
}
