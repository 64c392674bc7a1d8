// libFuzzer's driver, which the fuzz targets' main calls (https://llvm.org/docs/LibFuzzer.html):
// SwiftPM gives every executable a main of its own, so libFuzzer's cannot be the entry point.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
