package report

// trStrictYAML: internal/strictyaml, the messages about a workload or
// service file's form (unknown keys, wrong types), with its file and line.
var trStrictYAML = map[string]string{
	"the document is empty": "文档为空",
	"a second YAML document starts here (after ---): a file holds one document": "第二个 YAML 文档从这里开始（--- 之后）：一个文件只能包含一个文档",
	"want %s at the top of the document, got %s":                                "文档顶层应为%s，实际为%s",
	"JSON syntax error: %s":                                                     "JSON 语法错误：%s", // composed
	"want a whole number, got %s":                                               "应为整数，实际为 %s",
	"unknown key":                                                               "未知的键",
	"unknown key (did you mean %q?)":                                            "未知的键（是否应为 %q？）", // composed
	"unknown key (known keys: %s)":                                              "未知的键（已知的键：%s）",  // composed
	" (did you mean %q?)":                                                       "（是否应为 %q？）",
	"want %s, got %s":                                                           "应为%s，实际为%s",
	"want %s, got %q":                                                           "应为%s，实际为 %q",
	"a mapping (key: value)":                                                    "映射（键: 值）",
	"a mapping of keys":                                                         "键的映射",
	"a list":                                                                    "列表",
	"a string":                                                                  "字符串",
	"true or false":                                                             "true 或 false",
	"a number":                                                                  "数字",
	"a whole number":                                                            "整数",
	"a single value":                                                            "单个值",
}
