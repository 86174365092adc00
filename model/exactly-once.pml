/*
 * ShareKit's exactly-once protocol for one share, in Promela (Spin 6.5).
 *
 * Processes: the `share send` CLI, two daemons (the outbox's takeover and
 * drainer, each crashing and restarting at any step), the person (drop
 * during the undo window) and, once they all ended, a final daemon pass
 * without faults (what `share-daemon --once --lease 0 --retry-now` does at
 * the end of a chaos run). The server is the atomic transaction of
 * createMessage, reached through a network that may drop the request or
 * lose the answer.
 *
 * Every step names the code that performs it in a comment of the form
 * `code: <Type>.<function>`; tools/model-check checks that each one exists in
 * the Swift sources. docs/model.md maps the model to the code.
 *
 * Mutations (tools/model-check compiles each with -D and expects a trail):
 *   MUT_NO_KEY_ON_RETRY      a retry carries a fresh client_msg_id
 *   MUT_TAKEOVER_NO_LOCK     the takeover takes an entry someone holds
 *   MUT_DELETE_BEFORE_COMMIT the entry leaves the inbox before the outbox stores it
 *   MUT_RETRY_AFTER_REFUSAL  a refused item goes back to pending
 *   MUT_SENT_BEFORE_ANSWER   the daemon marks sent before the server answered
 *
 * SLOW_DRAINER lets a claim's lease run out while its drainer still sends
 * (a send longer than --lease, with a second drainer running). Spin found a
 * trail there (docs/model.md, "What Spin found"); since sent is final in
 * the outbox (SQLiteOutbox.updateUnlessSent) it holds: tools/model-check
 * --variant SLOW_DRAINER.
 */

#ifndef MAXCRASH
#define MAXCRASH 2      /* process kills in one run, over all processes */
#endif
#ifndef MAXFAULT
#define MAXFAULT 2      /* dropped requests and lost answers in one run */
#endif

/* who holds the entry's lock (flock on its folder: a kill gives it up) */
#define FREE    0
#define CLI     1
#define DAEMON1 2
#define DAEMON2 3
#define FINAL   4
#define PERSON  5

/* the inbox entry */
#define E_NONE  0   /* not written yet */
#define E_DRAFT 1   /* in .staging, under its lock */
#define E_INBOX 2   /* committed: the share exists */
#define E_GONE  3   /* processed (sent, refused, taken over, dropped) */
byte entry = E_NONE;
byte lockh = FREE;
bool m_upload;      /* the manifest records the completed upload id */
#define U_NONE 0
#define U_OPEN 1    /* interrupted: not_before lies ahead */
#define U_OVER 2
byte undo = U_NONE;

/* the outbox row (one SQLite database for every daemon) */
#define R_ABSENT  0
#define R_PENDING 1
#define R_SENDING 2
#define R_SENT    3
#define R_FAILED  4
byte row = R_ABSENT;
bool r_upload;      /* the row records the completed upload id */
bool r_files;       /* the outbox's own copy of the file exists */
bool r_reason;      /* a failed row keeps the refusal's reason */
byte claimer;       /* the live drainer whose claim the row is (FREE: none, or a dead one's) */

/* the server */
bool key;           /* the user's client_msg_id is claimed */
byte msgs;          /* messages for this share */
byte uploads;       /* uploads completed for this share */
bool refusing;      /* the target refuses the message (a 4xx), for good */
byte requests;      /* createMessage requests that reached the server */

/* what the person was told or did */
bool told_refused;  /* the CLI printed the refusal */
bool withdrawn;     /* removed by the person before any message request */
bool dropped;       /* removed by the person (before or after a request) */
bool committed;     /* the entry reached the inbox: the share exists */
bool asked;         /* a message request was sent at least once */

byte crashes, faults;
bool chaos = true;  /* kills and faults happen (false in the final pass) */
byte running = 4;   /* the CLI, two daemons and the person */

#define A_CREATED 1
#define A_REPLAY  2
#define A_REFUSED 3
#define A_LOST    4

#define CAN_CRASH (chaos && crashes < MAXCRASH)
#define CAN_FAULT (chaos && faults < MAXFAULT)

/* A kill: the kernel gives up the process's flock. */
inline die(me) {
  d_step {
    crashes++;
    if :: lockh == me -> lockh = FREE :: else -> skip fi;
    if :: claimer == me -> claimer = FREE :: else -> skip fi   /* its claim stays, until its lease ends */
  }
}

/* code: MessageRoutes.createMessage */
/* code: IdempotencyKey.claim */
inline server_create(ans) {
  d_step {
    requests++;
    assert(uploads > 0);              /* the message carries its completed upload */
    if
    :: refusing -> ans = A_REFUSED
    :: else ->
#ifdef MUT_NO_KEY_ON_RETRY
       if
       :: key && requests == 1 -> ans = A_REPLAY
       :: else -> key = true; msgs++; ans = A_CREATED
       fi;
#else
       if
       :: key -> ans = A_REPLAY
       :: else -> key = true; msgs++; ans = A_CREATED
       fi;
#endif
       assert(msgs <= 1);             /* never two messages for one share */
       assert(!withdrawn);            /* never one the person took back */
    fi
  }
}

/* One createMessage over the faulty network. */
/* code: MessageClient.createMessage */
inline request_message(ans) {
  assert(undo != U_OPEN);             /* never sent inside its undo window */
  asked = true;
  if
  :: CAN_FAULT -> faults++; ans = A_LOST   /* dropped before the server, or a 5xx */
  :: true ->
     server_create(ans);
     if
     :: CAN_FAULT -> faults++; ans = A_LOST   /* committed, the answer lost */
     :: true -> skip
     fi
  fi
}

proctype cli() {
  byte ans;
  /* code: FileShareInbox.makeDraft */
  d_step { entry = E_DRAFT; lockh = CLI }
  if :: CAN_CRASH -> die(CLI); goto dead :: true -> skip fi;
  /* code: FileShareInbox.commit */
  d_step { entry = E_INBOX; committed = true }
  if :: CAN_CRASH -> die(CLI); goto dead :: true -> skip fi;
  /* Ctrl-C before the message is asked for: --on-cancel decides. */
  if
  :: true -> skip
  :: true ->   /* --on-cancel remove */
     /* code: FileShareInbox.markProcessed */
     d_step { entry = E_GONE; withdrawn = !asked; dropped = true; lockh = FREE }
     goto dead
  :: true ->   /* --on-cancel keep: the undo window, written under the lock */
     /* code: UndoWindow.starting */
     /* code: FileShareInbox.update */
     d_step { undo = U_OPEN; lockh = FREE }
     goto dead
  fi;
  if
  :: !m_upload ->
     /* code: DeliveryEngine.deliver */
     /* code: StreamingUploader.upload */
     uploads++;
     if :: CAN_CRASH -> die(CLI); goto dead :: true -> skip fi;
     /* code: InboxEntryKeeper.uploaded */
     m_upload = true;
     if :: CAN_CRASH -> die(CLI); goto dead :: true -> skip fi
  :: else -> skip
  fi;
  request_message(ans);
  if :: CAN_CRASH -> die(CLI); goto dead :: true -> skip fi;
  if
  :: ans == A_CREATED || ans == A_REPLAY ->
     /* code: InboxEntryKeeper.sent */
     d_step { entry = E_GONE; lockh = FREE }
  :: ans == A_REFUSED ->
     /* code: InboxEntryKeeper.refuse */
     /* code: SendReport.finish */
     d_step { entry = E_GONE; lockh = FREE; told_refused = true }
  :: ans == A_LOST ->
     if
     :: true ->  /* queued (exit 3): the daemon sends it */
        /* code: InboxEntryKeeper.keep */
        lockh = FREE
     :: true ->  /* Ctrl-C while waiting for the answer: kept, with its window */
        /* code: InboxEntryKeeper.cancelled */
        d_step { undo = U_OPEN; lockh = FREE }
     fi
  fi;
dead:
  running--
}

/* One takeover of the entry into the outbox, by `me`. */
inline takeover(me) {
#ifdef MUT_TAKEOVER_NO_LOCK
  d_step { entry == E_INBOX && undo != U_OPEN -> if :: lockh == FREE -> lockh = me :: else -> skip fi }
#else
  /* code: FileShareInbox.lockFreeEntries */
  /* code: InboxManifest.undoWait */
  d_step { entry == E_INBOX && lockh == FREE && undo != U_OPEN -> lockh = me }
#endif
  if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
#ifdef MUT_DELETE_BEFORE_COMMIT
  d_step { entry = E_GONE; if :: lockh == me -> lockh = FREE :: else -> skip fi }
  if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
#endif
  if
  :: row != R_ABSENT ->
     /* code: SQLiteOutbox.contains */
     skip
  :: else ->
     /* code: OutboxFiles.linkOrCopy */
     /* code: SQLiteOutbox.enqueue */
     d_step { row = R_PENDING; r_upload = m_upload; r_files = true }
  fi;
  if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
  /* code: FileShareInbox.markProcessed */
  d_step { entry = E_GONE; if :: lockh == me -> lockh = FREE :: else -> skip fi }
}

/* One claimed send of the outbox item, by `me`. */
inline drain(me, ans, have_up) {
  /* code: SQLiteOutbox.nextDue */
  d_step { row == R_PENDING -> row = R_SENDING; claimer = me; have_up = r_upload }
  if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
  if
  :: !have_up && !r_files ->
     /* The outbox's copy is gone (a sent item's): refused at the kept share's stage. */
     /* code: OutboxDrainer.outgoing */
     /* code: OutboxItemKeeper.refuse */
     /* code: SQLiteOutbox.updateUnlessSent */
     d_step { if :: row != R_SENT -> row = R_FAILED; r_reason = true :: else -> skip fi; claimer = FREE }
     goto drained
  :: !have_up && r_files ->
     /* code: StreamingUploader.upload */
     uploads++;
     if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
     /* code: OutboxItemKeeper.uploaded */
     /* code: SQLiteOutbox.recordUploaded */
     r_upload = true;
     if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi
  :: else -> skip
  fi;
#ifdef MUT_SENT_BEFORE_ANSWER
  d_step { row = R_SENT; r_files = false }
#endif
  request_message(ans);
  if :: CAN_CRASH -> die(me); goto restart :: true -> skip fi;
  if
  :: ans == A_CREATED || ans == A_REPLAY ->
     /* code: OutboxItemKeeper.sent */
     /* code: SQLiteOutbox.markSent */
     d_step { row = R_SENT; r_files = false; claimer = FREE }
  :: ans == A_REFUSED ->
#ifdef MUT_RETRY_AFTER_REFUSAL
     d_step { row = R_PENDING; claimer = FREE }
#else
     /* code: OutboxItemKeeper.refuse */
     /* code: SQLiteOutbox.markFailed */
     /* sent is final: a late mark of a stale claim changes nothing */
     d_step { if :: row != R_SENT -> row = R_FAILED; r_reason = true :: else -> skip fi; claimer = FREE }
#endif
  :: ans == A_LOST ->
     /* code: OutboxItemKeeper.keep */
     /* code: SQLiteOutbox.markRetry */
     d_step { if :: row != R_SENT -> row = R_PENDING :: else -> skip fi; claimer = FREE }
  fi;
drained:
  skip
}

proctype daemon(byte me) {
  byte ans;
  bool have_up;
restart:
  do
  :: takeover(me)
  :: drain(me, ans, have_up)
  :: /* a claim whose lease (600 s by default) ran out: its drainer died;
        with SLOW_DRAINER also one still sending (a send longer than the lease) */
     /* code: OutboxDrainer.releaseStaleClaims */
     /* code: SQLiteOutbox.releaseClaims */
#ifdef SLOW_DRAINER
     d_step { row == R_SENDING -> row = R_PENDING }
#else
     d_step { row == R_SENDING && claimer == FREE -> row = R_PENDING }
#endif
  :: CAN_CRASH -> die(me)     /* killed while idle, restarted */
  :: break
  od;
  running--
}

/* The person: `share inbox drop` inside the undo window, or the window ends. */
proctype person() {
  do
  :: /* code: FileShareInbox.drop */
     d_step { entry == E_INBOX && undo == U_OPEN && lockh == FREE -> entry = E_GONE; withdrawn = !asked; dropped = true }
     break
  :: d_step { undo == U_OPEN -> undo = U_OVER }
     break
  :: running == 1 -> break    /* the others ended: nothing left to decide */
  od;
  running--
}

/* After the storm: no kill, no fault, the window over; the daemon's
   passes until nothing is left, then what must hold. */
proctype final() {
  byte ans;
  bool have_up;
  byte pass = 0;
  running == 0;
  d_step { chaos = false; if :: undo == U_OPEN -> undo = U_OVER :: else -> skip fi }
  do
  :: pass < 4 ->
     pass++;
     /* code: SQLiteOutbox.releaseClaims */
     d_step { if :: row == R_SENDING -> row = R_PENDING :: else -> skip fi }
     if
     :: entry == E_INBOX && lockh == FREE -> takeover(FINAL)
     :: else -> skip
     fi;
     if
     :: row == R_PENDING -> drain(FINAL, ans, have_up)
     :: else -> skip
     fi
  :: else -> break
  od;
  goto checked;
restart:
  assert(false);                      /* no kill in the final pass */
checked:
  /* No entry that nobody will ever take: */
  assert(entry != E_INBOX);
  /* no item left half-way: */
  assert(row != R_PENDING && row != R_SENDING);
  /* a refusal is never sent, and its reason is kept (a failed outbox
     row) or was told (the CLI's report), unless the person took it back: */
  assert(!refusing || msgs == 0);
  assert(!refusing || !asked || dropped || told_refused || (row == R_FAILED && r_reason));
  /* a committed share that the person did not take back and the server did not refuse is there once: */
  assert(!(committed && !dropped && !refusing) || msgs == 1);
  /* a share reported not sent (a failed row) is not on the server: */
  assert(row != R_FAILED || msgs == 0);
  assert(msgs <= 1)
}

init {
  if
  :: refusing = false
  :: refusing = true
  fi;
  atomic {
    run cli();
    run daemon(DAEMON1);
    run daemon(DAEMON2);
    run person();
    run final()
  }
}
