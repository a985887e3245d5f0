// The Catch2 main, compiled once and shared by every test executable.
//
// A test filter that matches no test fails (exit 2, as `-w NoTests`), instead of passing
// empty: a ';' in a test's name splits it in two for catch_discover_tests, and each half
// matched nothing (two option tests never ran under ctest that way). Set here rather than
// with catch_discover_tests' EXTRA_ARGS, which dropped the tests' PROPERTIES (RUN_SERIAL and
// OMP_WAIT_POLICY=passive were lost, and the learnability tests ran side by side).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv)) return rc;
  Catch::ConfigData& config = session.configData();
  config.warnings = static_cast<Catch::WarnAbout::What>(config.warnings | Catch::WarnAbout::NoTests);
  return session.run();
}
