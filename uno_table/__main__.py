from uno_table.cli import main

raise SystemExit(main())
