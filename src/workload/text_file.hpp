#pragma once
// The workload readers' include of the whole-file read, which lives in core.
#include "core/text_file.hpp"
