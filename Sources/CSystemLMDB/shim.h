#ifndef ROUTELOG_CSYSTEMLMDB_SHIM_H
#define ROUTELOG_CSYSTEMLMDB_SHIM_H
#include <lmdb.h>
#endif
