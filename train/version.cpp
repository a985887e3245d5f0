#include "train/version.h"
namespace ordo {
const char* version() { return ORDO_VERSION; }
}
