public import HTTPTypes
