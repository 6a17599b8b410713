from toolgen.cli import main

main()
