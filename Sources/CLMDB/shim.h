#ifndef ROUTELOG_CLMDB_SHIM_H
#define ROUTELOG_CLMDB_SHIM_H
#include <lmdb.h>
#endif
