// The Catch2 main, compiled once and shared by every test executable.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
