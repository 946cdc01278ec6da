// RUN: -P -D LEVEL=2
#if LEVEL == 1
int level_one;
#elif LEVEL == 2 && defined(LEVEL)
int level_two;
#else
int level_other;
#endif
#if !defined(MISSING) || MISSING
int not_missing;
#endif
