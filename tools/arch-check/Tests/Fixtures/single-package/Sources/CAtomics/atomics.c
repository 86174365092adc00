#include "atomics.h"
