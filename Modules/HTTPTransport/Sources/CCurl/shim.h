// Headers of libcurl (libcurl4-openssl-dev) that HTTPTransport uses.
#pragma once
#include <curl/curl.h>
