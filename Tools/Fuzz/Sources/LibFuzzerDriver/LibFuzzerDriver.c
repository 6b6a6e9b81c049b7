// Only the header: a C module needs a source file.
#include "LibFuzzerDriver.h"
