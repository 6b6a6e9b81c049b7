// libFuzzer's entry point for a program that has a main of its own (the toolchain's libFuzzer,
// linked by -sanitize=fuzzer, defines it).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
