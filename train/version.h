// train/version.h: the ordo version string, written into every log and checkpoint.
#pragma once
namespace ordo {
const char* version();
}
