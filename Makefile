# ShareKit as a Linux tool: the three programs, their manual pages, the
# shell completions `share` generates, the desktop entry and the systemd
# user unit, installed where man, bash-completion, zsh, fish, the desktop
# and systemd look for them.
#
#   make                                    the release build (below)
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
#
# The release build is the one the benchmarks measure and a release ships:
# `swift build -c release --static-swift-stdlib`, the Swift runtime and
# Foundation linked into each program, so the programs run without the
# toolchain's folders on the library path and `share` starts without
# loading a dozen shared libraries (docs/performance.md: a default release
# build peaks at 33.6 MiB for a text share and 34 MiB for an idle daemon,
# over the 30 MiB goals the static build meets). It takes a few minutes the
# first time on two cores.
#
# BUILT_DIR=DIR installs programs built before from DIR instead of building
# (the end-to-end tests install their debug build that way).

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# systemd looks for user units in PREFIX/lib/systemd/user for /usr and
# /usr/local, and in ~/.local/share/systemd/user for a person's own.
ifeq ($(PREFIX),$(HOME)/.local)
SYSTEMDUSERUNITDIR ?= $(DATADIR)/systemd/user
else
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
endif

SWIFT ?= swift
SWIFT_BUILD_FLAGS ?= -c release --static-swift-stdlib
PROGRAMS = share share-daemon share-server
# The share sheet (GTK 4): installed next to `share`, whose desktop launch finds it on $PATH.
SHEET = share-sheet
BUILT_DIR ?=

# Where the programs are: BUILT_DIR, or the release build's folder.
bin = $(if $(BUILT_DIR),$(BUILT_DIR),$(shell $(SWIFT) build $(SWIFT_BUILD_FLAGS) --show-bin-path))

# Every file `make install` writes, relative to DESTDIR.
installed = \
	$(addprefix $(BINDIR)/,$(PROGRAMS) $(SHEET)) \
	$(addprefix $(MANDIR)/man1/,$(addsuffix .1,$(PROGRAMS))) \
	$(DATADIR)/bash-completion/completions/share \
	$(DATADIR)/zsh/site-functions/_share \
	$(DATADIR)/fish/vendor_completions.d/share.fish \
	$(DATADIR)/applications/sharekit.desktop \
	$(SYSTEMDUSERUNITDIR)/share-daemon.service

.PHONY: all build install uninstall

all: build

build:
ifeq ($(BUILT_DIR),)
	@for product in $(PROGRAMS) $(SHEET); do \
		echo "swift build $(SWIFT_BUILD_FLAGS) --product $$product"; \
		$(SWIFT) build $(SWIFT_BUILD_FLAGS) --product $$product || exit 1; \
	done
endif

install: build
	install -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)/man1" \
		"$(DESTDIR)$(DATADIR)/bash-completion/completions" "$(DESTDIR)$(DATADIR)/zsh/site-functions" \
		"$(DESTDIR)$(DATADIR)/fish/vendor_completions.d" "$(DESTDIR)$(DATADIR)/applications" \
		"$(DESTDIR)$(SYSTEMDUSERUNITDIR)"
	install -m 755 $(addprefix "$(bin)"/,$(PROGRAMS) $(SHEET)) "$(DESTDIR)$(BINDIR)/"
	"$(bin)/share" manpage > "$(DESTDIR)$(MANDIR)/man1/share.1"
	"$(bin)/share-daemon" --manpage > "$(DESTDIR)$(MANDIR)/man1/share-daemon.1"
	"$(bin)/share-server" manpage > "$(DESTDIR)$(MANDIR)/man1/share-server.1"
	"$(bin)/share" completions bash > "$(DESTDIR)$(DATADIR)/bash-completion/completions/share"
	"$(bin)/share" completions zsh > "$(DESTDIR)$(DATADIR)/zsh/site-functions/_share"
	"$(bin)/share" completions fish > "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/share.fish"
	sed -e 's|^Exec=share |Exec=$(BINDIR)/share |' -e 's|^TryExec=share$$|TryExec=$(BINDIR)/share|' \
		contrib/desktop/sharekit.desktop > "$(DESTDIR)$(DATADIR)/applications/sharekit.desktop"
	sed -e 's|^ExecStart=.*|ExecStart=$(BINDIR)/share-daemon|' \
		contrib/systemd/share-daemon.service > "$(DESTDIR)$(SYSTEMDUSERUNITDIR)/share-daemon.service"
	chmod 644 $(addprefix "$(DESTDIR),$(addsuffix ",$(filter-out $(addprefix $(BINDIR)/,$(PROGRAMS) $(SHEET)),$(installed))))
	@echo "installed into $(DESTDIR)$(PREFIX): $(PROGRAMS) $(SHEET), man pages, completions (bash, zsh, fish), desktop entry, systemd user unit"

uninstall:
	rm -f $(addprefix "$(DESTDIR),$(addsuffix ",$(installed)))
