// Headers of libpq (libpq-dev) that PostgresStore uses.
#pragma once
#include <libpq-fe.h>
