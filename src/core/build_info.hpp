#pragma once
// What built this binary: the project version (CMakeLists.txt) and the git commit of the source
// tree at build time ("unknown" outside git, suffixed "-dirty" when tracked files were modified).

namespace flux {

[[nodiscard]] inline const char* build_version() {
  return FLUX_VERSION;
}
[[nodiscard]] const char* build_commit();  // generated: cmake/FluxBuildInfo.cmake

}  // namespace flux
