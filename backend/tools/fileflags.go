package tools

import "os"

const readOnly = os.O_RDONLY
