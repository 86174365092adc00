// Headers of libcurl (libcurl4-openssl-dev) that HTTPTransport uses. Nothing
// links libcurl: CCurlShim loads it on first use.
#pragma once
#include <curl/curl.h>
