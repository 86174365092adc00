#include "cdep.h"
