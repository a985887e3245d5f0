# tests/shell/lib/compile_command.sh: the build's compile command for one source, from its
# compile_commands.json; sourced by the shell tests that recompile sources on their own
# (test_thread_safety.sh with clang++, test_unity_names.sh).
#
#   compile_command <build dir> <source as given to the compiler> [<as whom>]
#
# prints the command line, unescaped, or nothing where the source is not in the build. In a
# unity build (CMakeLists.txt, ORDO_UNITY_BUILD) a library's source is compiled inside a batch:
# the batch's command then, with the source (or <as whom>, for a batch itself) in the batch's
# place. The precompiled header's flags (CMake's -include cmake_pch.hxx, -Winvalid-pch) are
# dropped: the header itself is still included by the source, and another compiler (clang++)
# cannot read GCC's precompiled form.
compile_command() {
  local build=$1 source=$2 as=${3:-$2} commands=$1/compile_commands.json line batch
  line=$(grep -F -B1 "\"file\": \"$source\"" "$commands" | head -1)
  if [[ $line != *'"command"'* ]]; then
    batch=$(grep -l -F "#include \"$source\"" "$build"/CMakeFiles/*/Unity/*.cxx 2>/dev/null | head -1 || true)
    [[ -n $batch ]] || return 0
    line=$(grep -F -B1 "\"file\": \"$batch\"" "$commands" | head -1)
    source=$batch
  fi
  [[ $line == *'"command"'* ]] || return 0
  line=${line#*\"command\": \"}
  line=${line%\",}
  line=${line//\\\"/\"}
  line=${line//\\\\/\\}
  line=${line//$source/$as}
  line=$(sed -E 's/ -Winvalid-pch//g; s/ -include [^ ]*cmake_pch\.hxx//g; s/ -Xclang -include-pch -Xclang [^ ]*//g' <<<"$line")
  echo "$line"
}
